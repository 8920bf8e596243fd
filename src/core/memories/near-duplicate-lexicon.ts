// What the near-duplicate rule (near-duplicate.ts) knows of English words:
// one canonical form for the ways people commonly state the same personal
// fact. Every entry is an equivalence in everyday meaning, never a "related"
// word: the rule's vetoes (docs/duplicates.md) still keep apart whatever the
// lexicon does not make equal ("hypertension" meets "high blood pressure",
// never "low blood pressure").

/**
 * Place names said several ways, on the text as written (case kept, so the
 * names part of the rule sees one name): "the United States" / "the US" / "America".
 */
export const NAME_ALIASES: [RegExp, string][] = [
  [/\b(?:the )?(?:United States(?: of America)?|U\.S\.A?\.?|USA|US)(?=\W|$)|(?<!(?:South|North|Central|Latin) )\bAmerica\b/g, 'USA'],
  [/\b(?:the )?(?:United Kingdom|U\.K\.|UK|Great Britain)\b|(?<!Great )\bBritain\b/g, 'UK'],
  [/\bHolland\b/g, 'Netherlands'],
  [/\b(?:New York City|NYC)\b/g, 'New York'],
];

/**
 * Phrases and specialist words folded to the plain phrase a person would also
 * use, on the lowercased text with "n't" spelt "not". The plain phrase is the
 * canonical form so its parts still meet the vetoes: "hypertension" becomes
 * "high blood pressure", whose "high" differs from "low".
 */
const PHRASES: [string, string][] = [
  // Health: the specialist word and the plain words.
  ['hypertension|hypertensive', 'high blood pressure'],
  ['hypotension|hypotensive', 'low blood pressure'],
  ['hypercholesterolemia|hypercholesterolaemia', 'high cholesterol'],
  ['insomniac|insomnia|(?:trouble|difficulty|problems) sleeping|struggles to sleep|sleeps? (?:badly|poorly)|(?:a )?poor sleeper', 'insomnia'],
  ['(?:near|short)[- ]?sighted(?:ness)?|myopi[ac]', 'nearsighted'],
  ['(?:far|long)[- ]?sighted(?:ness)?|hyperopi[ac]', 'farsighted'],
  ['expecting (?:their|her|his|our|a|an) (first|second|third|fourth|fifth) (?:baby|child)', 'pregnant with $1 child'],
  ['expecting (?:baby|child) number (\\w+)', 'pregnant with $1 child'],
  ['expecting a baby|expecting a child|with child', 'pregnant'],
  ['passed away|has died|is dead|is deceased', 'died'],
  // Fears: a phobia is being afraid of its object.
  ['arachnophobi[ac]', 'afraid of spiders'],
  ['acrophobi[ac]|(?:a )?fear of heights', 'afraid of heights'],
  ['claustrophobi[ac]', 'afraid of enclosed spaces'],
  ['(?:small|tight|confined|closed) spaces', 'enclosed spaces'],
  ['aerophobi[ac]|aviophobi[ac]', 'afraid of flying'],
  ['cynophobi[ac]', 'afraid of dogs'],
  ['ophidiophobi[ac]', 'afraid of snakes'],
  ['trypanophobi[ac]', 'afraid of needles'],
  ['glossophobi[ac]', 'afraid of public speaking'],
  ['(?:dental|dentist) (?:anxiety|phobia|fear)', 'afraid of the dentist'],
  ['(?:a )?(?:fear|phobia) of', 'afraid of'],
  // Diets and drinking.
  ['teetotal(?:l?er)?|(?:a )?non-?drinker|does not drink(?= *$| *\\.)|abstains from alcohol|(?:does not|never) drinks? any alcohol', 'does not drink alcohol'],
  ['(?:a )?non-?smoker', 'does not smoke'],
  ['(?:a )?smoker', 'smokes'],
  ['(?:a )?vegetarian', 'does not eat meat or fish'],
  ['(?:a )?vegan', 'does not eat animal products'],
  ['(?:a )?pesc[ae]tarian', 'eats fish but not meat'],
  ['([a-z]+)-free', 'no $1'],
  // Family and home.
  ['(?:mother|mum|mom) and (?:father|dad)|(?:father|dad) and (?:mother|mum|mom)', 'parents'],
  ['(?:grandmother|grandma|granny) and (?:grandfather|grandpa)|(?:grandfather|grandpa) and (?:grandmother|grandma|granny)', 'grandparents'],
  ['brothers? and sisters?|sisters? and brothers?', 'siblings'],
  ['is married to|is the spouse of', 'spouse'],
  ['shares? (?:a |an |the |their |his |her )?(?:flat|apartment|house|home) with', 'lives with'],
  ['lives by (?:himself|herself|themselves|themself)|lives on (?:his|her|their) own', 'lives alone'],
  ['is based in|resides in|makes (?:his|her|their) home in', 'lives in'],
  ['(?:looks?|looking|looked) after|takes? care of|taking care of|took care of', 'cares for'],
  // Habits and character.
  ['(?:an )?early (?:bird|riser)|(?:a )?morning lark|(?:gets?|got|wakes?|woke|rises?) up early|rises early', 'morning person'],
  ['(?:a )?night owl', 'night person'],
  ['works? out|working out|worked out', 'exercises'],
  ['been to|travell?ed to', 'visited'],
  ['would rather|would prefer', 'prefers'],
  ['would (?:like|love)|(?:is|are) keen to|intends? to', 'wants to'],
  ['dislikes?|disliked|hates?|hated|detests?|loathes?|(?:can|could)not stand|(?:is|are) not (?:a )?(?:big )?fans? of', 'does not like'],
  ['(?:is|are) (?:really |very |a )?(?:into|keen on|fond of|passionate about|crazy about|mad about|big fans? of|fans? of)', 'likes'],
  ['(?:has|have) a sweet tooth', 'likes candy'],
  ['(?:sweet|sugary) (?:food|things|treats|stuff)', 'candy'],
  ['(?:(?:is|are) )?(?:unable|not able) to (?:digest|tolerate)|cannot (?:digest|tolerate)', 'intolerant to'],
  ['(?:does|do) not know how to|(?:is|are) (?:unable|not able) to', 'cannot'],
  ['goes to the gym|go to the gym|going to the gym|hits the gym', 'exercises at the gym'],
  ['(?:is|are) (?:dating|in a relationship with|going out with)', 'partner'],
  ['(?:is|are) engaged to', 'fiance'],
  ['(?:is|are) single|(?:is|are) not in a relationship', 'has no partner'],
  ['(?:is|are) (?:an? )?only child', 'has no siblings'],
  ['(?:is|are) childless|(?:does|do) not have (?:any )?(?:children|kids)', 'has no children'],
  ['self-employed|(?:a )?freelancer|freelances|works for (?:himself|herself|themselves|themself)', 'freelance'],
  ['out of work|between jobs|jobless', 'unemployed'],
  ['colou?r[- ]blind(?:ness)?', 'colorblind'],
  ['by (?:profession|trade)', ''],
  ['(?:first|given) name|forename', 'forename'],
  ['mother tongue|native tongue|first language', 'native language'],
  ['best friend|closest friend', 'close friend'],
  ['home town', 'hometown'],
  ['goes by|go by|(?:prefers|likes|wants) (?:to be|being) (?:called|named)', 'nickname'],
  ['backache|back ache|bad back', 'back pain'],
  ['hard of hearing|hearing loss|(?:poor|bad|impaired) hearing|hearing is (?:poor|bad|impaired)', 'hearing loss'],
  ['electric vehicle|ev', 'electric car'],
  ["'s (?:birthplace|place of birth) is|(?:is|are) (?:a )?natives? of|hails? from", ' was born in'],
  ['(?:takes?|taking|took|has|have|having) (\\w+) lessons', 'learning $1'],
  ['(?:has|have|had|having) (?:an? )?(?:appointment|appt) with', 'sees'],
  ['a decade', '10 years'],
  ['toothache', 'tooth pain'],
  ['physical therapist|physio', 'physiotherapist'],
  ['e-mails?', 'email'],
  // More health words with a plain equivalent.
  ['myocardial infarction', 'heart attack'],
  ['hyperglyc[a]?emia', 'high blood sugar'],
  ['hypoglyc[a]?emia', 'low blood sugar'],
  ['hypothyroidism|(?:an )?underactive thyroid', 'underactive thyroid'],
  ['hyperthyroidism|(?:an )?overactive thyroid', 'overactive thyroid'],
  ['seasonal allergies|allergic rhinitis|hayfever', 'hay fever'],
  ['acid reflux|gerd|heartburn', 'reflux'],
  ['irritable bowel syndrome', 'ibs'],
  ['atopic dermatitis', 'eczema'],
  ['ringing in (?:the|his|her|their) ears', 'tinnitus'],
  ['influenza', 'flu'],
  ['contact lenses', 'contacts'],
  ['coeliac disease|celiac disease|celiac', 'coeliac'],
  // More everyday phrasings.
  ['(?:is|are) (?:skilled|talented|great|excellent|very good) at|excels? at', 'good at'],
  ['(?:is|are) (?:bad|terrible|poor|awful|hopeless) at', 'is not good at'],
  ['(?:knows?|knew) how to|(?:is|are) able to', 'can'],
  ['(?:is|are) (?:in charge of|responsible for)', 'manages'],
  ['split up with|split from', 'broke up with'],
  ['tied the knot', 'got married'],
  ['(?:took|takes?|taking) up', 'started'],
  ['stays? away from|steers? clear of', 'avoids'],
  ['catch(?:es)? up with|caught up with', 'meets'],
  ['hangs? out with|hung out with', 'spends time with'],
  ['plant-based', 'does not eat animal products'],
  ['fizzy drinks?|soft drinks?', 'soda'],
  ['grocery store', 'supermarket'],
  ['(?:grocery|food) shopping', 'groceries'],
  ['drugstore|chemist', 'pharmacy'],
  ['movie theaters?|movie theatres?|the movies', 'cinema'],
  ['city cent(?:re|er)|town cent(?:re|er)|downtown', 'city center'],
  ['time off|days off|paid leave|pto', 'leave'],
  ['saturdays? and sundays?', 'weekends'],
  ['mondays? (?:to|through|-) fridays?|during the week', 'weekdays'],
  ['wfh|works? from home', 'works from home'],
  ['half an hour', '30 minutes'],
  ['(?:a )?quarter of an hour', '15 minutes'],
  ['fortnightly|every fortnight|once a fortnight|biweekly', 'every 2 weeks'],
  ['midday|noon', '12 pm'],
  ['midnight', '12 am'],
  ["o'clock", ''],
  ['a\\.m', 'am'],
  ['p\\.m', 'pm'],
  ['(?:last|family) name|surname', 'surname'],
  ['(?:puts?|sets?|putting|setting) (?:(?:some )?money )?(?:aside|away)', 'saves'],
  ['(?:gave|given|giving|gives?) up', 'quit'],
  // A debt paid off is over; getting up is waking, not going to bed.
  ['(?:paid|pays?|paying) (?:off|back)', 'repaid'],
  ['(?:gets?|got|getting) up', 'wakes up'],
  ['in the past', 'formerly'],
  // Sleep, upbringing, age, family size: the idiom and the plain words.
  ['turns? in(?= (?:at|around|about|early|late|by|before)\\b)|turned in(?= (?:at|around|about|early|late|by|before)\\b)|hits? the (?:sack|hay)', 'goes to bed'],
  ['(?:stays?|staying) up late|goes to bed late', 'night person'],
  ['spent (?:his|her|their|my) childhood in|(?:was|were) (?:brought up|raised) in|brought up in', 'grew up in'],
  ['(\\S+)[- ]years?[- ]old', 'age $1'],
  ['age(?:d| is| of)? (\\d+)', 'age $1'],
  ['(?:a )?(?:parent|mother|father|mum|mom|dad) of (two|three|four|five|six|seven|\\d+)', 'has $1 child'],
  ['(oldest|youngest|eldest|middle) (?:child )?of (\\w+) (?:children|kids|siblings)', '$1 of $2 siblings'],
  // Getting somewhere and getting ready.
  ['commutes?|commuting|commuted', 'goes to work'],
  ['on foot', 'walking'],
  ['(?:is |are )?(?:preparing|getting ready|in training) (?:for|to run|to do)', 'training for'],
  ['(?:has|have) (?:a |an )?(?:meeting|one-on-one|1-on-1) with|one-on-ones? with', 'meets'],
  // Choosing, supporting, consuming.
  ['always (?:picks|chooses|goes for|books|orders)', 'prefers'],
  ['roots? for|rooting for|cheers? (?:for|on)', 'supports'],
  ['(?:gets?|goes|got|went|going|getting) through', 'uses'],
  ["'s car is (?:a|an)", ' drives a'],
  ['(?:calls|phones|rings|calling|phoning|ringing|call|phone|ring)(?= (?:their|his|her|them|him|my)\\b)', 'telephones'],
  ['sci-?fi|science fiction', 'scifi'],
  // Some of a language: "speaks a little Japanese" / "knows some basic Japanese".
  ['(?:speaks?|knows?) (?:a little|a bit of|some basic|some|basic)|(?:has|have) (?:some )?basic', 'speaks basic'],
  ['blood group', 'blood type'],
  ['per month|a month|each month|every month|monthly', 'month'],
  ['per week|a week|each week|every week|weekly', 'week'],
  ['per year|a year|each year|every year|annually|annual|yearly', 'year'],
];

/** One regular expression for all phrases: the matched alternative tells which. */
const PHRASE_RE = new RegExp(PHRASES.map(([p]) => `\\b(${p})\\b`).join('|'), 'g');

/** Where each phrase's group starts among the expression's groups: each is followed by its own inner groups ("-free", "$1 child"). */
const PHRASE_GROUP: number[] = [];
for (let i = 0, group = 1; i < PHRASES.length; i++) {
  PHRASE_GROUP.push(group);
  group += 1 + (PHRASES[i]![0].match(/\((?!\?)/g)?.length ?? 0);
}

export function foldPhrases(lower: string): string {
  return lower.replace(PHRASE_RE, (...args: unknown[]) => {
    for (let i = 0; i < PHRASES.length; i++) {
      const group = PHRASE_GROUP[i]!;
      if (typeof args[group] !== 'string') continue;
      const to = PHRASES[i]![1];
      return ' ' + (to.includes('$') ? to.replace(/\$(\d)/g, (_, k: string) => String(args[group + Number(k)] ?? '')) : to) + ' ';
    }
    return String(args[0]);
  });
}

/**
 * Past forms of common irregular verbs ("stole"/"stolen" meet "steal") and
 * irregular plurals ("teeth" meets "tooth"). Forms
 * that are also other words are left out ("left", "saw", "felt", "found",
 * "bit", "fell", "fed", "sat", "drew"), so is "grew" ("grew up" is not "grows"),
 * and "had" stays the past marker the rule reads.
 */
export const IRREGULAR: Record<string, string> = Object.fromEntries(
  `steal stole stolen|break broke broken|buy bought|bring brought|teach taught|think thought|catch caught|sell sold|tell told
   choose chose chosen|drive drove driven|write wrote written|eat ate eaten|drink drank drunk|swim swam swum|run ran|begin began begun
   win won|lose lost|meet met|send sent|build built|know knew known|fly flew flown|give gave given
   forget forgot forgotten|hide hid hidden|ride rode ridden|sing sang sung|speak spoke spoken|wake woke woken|wear wore worn
   tear tore torn|freeze froze frozen|fight fought|seek sought|sleep slept|spend spent|lend lent|lead led|flee fled
   stand stood|understand understood|throw threw thrown|shake shook shaken|forgive forgave forgiven
   learn learnt|burn burnt|dream dreamt|become became|hang hung|dig dug
   tooth teeth|foot feet|mouse mice|woman women|man men|person people|goose geese`
    .split(/[|\n]/)
    .flatMap((line) => {
      const [base, ...forms] = line.trim().split(/\s+/);
      return forms.map((f) => [f, base!]);
    }),
);

/**
 * Everyday synonyms folded to one word before stemming. A word of the rule's
 * closed kinds (relatives, sizes, …) must be folded here so its kind is read
 * from the folded word.
 */
export const FOLD: Record<string, string> = {
  favourite: 'favorite', colour: 'color', colours: 'color', neighbour: 'neighbor', neighbours: 'neighbor', tyres: 'tire', tyre: 'tire',
  centre: 'center', mom: 'mother', mum: 'mother', dad: 'father', grandma: 'grandmother', granny: 'grandmother', grandpa: 'grandfather',
  kids: 'child', kid: 'child', children: 'child', film: 'movie', films: 'movie', movies: 'movie', flat: 'apartment',
  flatmate: 'roommate', flatmates: 'roommate', roommates: 'roommate', housemate: 'roommate', housemates: 'roommate',
  enjoy: 'like', enjoys: 'like', love: 'like', loves: 'like',
  likes: 'like', cycle: 'bike', cycles: 'bike', bikes: 'bike', bicycle: 'bike', works: 'work', working: 'work', employed: 'work', job: 'work',
  occupation: 'work', profession: 'work',
  phones: 'call', calls: 'call', allergy: 'allergic', allergies: 'allergic', ocean: 'sea', gp: 'doctor', physician: 'doctor',
  eldest: 'oldest', writer: 'author', studying: 'learn', studies: 'learn', study: 'learn', learning: 'learn', learns: 'learn',
  scared: 'afraid', fear: 'afraid', frightened: 'afraid', terrified: 'afraid',
  diabetic: 'diabetes', asthmatic: 'asthma', dyslexic: 'dyslexia', vacation: 'leave', holiday: 'leave', holidays: 'leave',
  married: 'wedding', husband: 'spouse', wife: 'spouse', near: 'close', begin: 'start', begins: 'start', fan: 'like',
  favorite: 'like', prefer: 'like', prefers: 'like', preferred: 'like', daily: 'day', deadline: 'due', intolerance: 'intolerant',
  interruption: 'interrupt', interruptions: 'interrupt', programming: 'code', coding: 'code', codes: 'code',
  born: 'birthday', supports: 'like', support: 'like', flight: 'fly', flights: 'fly', flies: 'fly', flying: 'fly', plane: 'fly',
  planes: 'fly', lefty: 'left', doctorate: 'phd', trip: 'visit', raised: 'grew', bed: 'sleep', countryside: 'country',
  belongs: 'member', belong: 'member', height: 'tall', remote: 'home', remotely: 'home', adore: 'like', adores: 'like', office: 'work', best: 'like',
  dental: 'dentist', boss: 'manager', supervisor: 'manager', coworker: 'colleague', coworkers: 'colleague', 'co-worker': 'colleague',
  'co-workers': 'colleague', workmate: 'colleague', workmates: 'colleague', buddy: 'friend', pal: 'friend', large: 'big',
  attorney: 'lawyer', solicitor: 'lawyer', couch: 'sofa', cellphone: 'phone', smartphone: 'phone', mobile: 'phone',
  television: 'tv', telly: 'tv', pc: 'computer', medicine: 'medication', meds: 'medication', medications: 'medication',
  unwell: 'ill', sick: 'ill', purchase: 'buy', purchased: 'buy', vehicle: 'car', automobile: 'car', salary: 'earn', income: 'earn',
  wage: 'earn', wages: 'earn', earns: 'earn', resides: 'live', reside: 'live', workout: 'exercise', workouts: 'exercise',
  redo: 'renovate', redoing: 'renovate', redone: 'renovate', remodel: 'renovate', remodeling: 'renovate', remodelling: 'renovate',
  refurbish: 'renovate', refurbishing: 'renovate', revamping: 'renovate', renovating: 'renovate', renovation: 'renovate',
  renovations: 'renovate', renovated: 'renovate', dead: 'died', deceased: 'died', death: 'died', die: 'died', dies: 'died',
  phobia: 'afraid', fiancee: 'fiance', widow: 'widowed', widower: 'widowed', fall: 'autumn', grey: 'gray',
  guitarist: 'guitar', pianist: 'piano', violinist: 'violin', cellist: 'cello', drummer: 'drums', drum: 'drums', bassist: 'bass',
  runner: 'run', jogger: 'run', swimmer: 'swim', cyclist: 'bike', cycling: 'bike', cycled: 'bike', hiker: 'hike', climber: 'climb',
  golfer: 'golf', skier: 'ski', surfer: 'surf',
  organise: 'organize', organised: 'organize', organising: 'organize', realise: 'realize', realised: 'realize', theatre: 'theater',
  jewellery: 'jewelry', programme: 'program', licence: 'license', practise: 'practice', practising: 'practice', travelling: 'travel',
  traveller: 'traveler', travelled: 'travel', cosy: 'cozy', defence: 'defense', yoghurt: 'yogurt', aubergine: 'eggplant',
  courgette: 'zucchini', coriander: 'cilantro', biscuits: 'cookie', biscuit: 'cookie', trainers: 'sneakers', maths: 'math',
  motorway: 'highway', lorry: 'truck', rubbish: 'trash', nappy: 'diaper', nappies: 'diaper', pram: 'stroller', sweets: 'candy',
  aeroplane: 'fly', airplane: 'fly', counsellor: 'therapist', counselor: 'therapist', veterinarian: 'vet', hairstylist: 'hairdresser',
  programmer: 'developer', coder: 'developer', cuisine: 'food', supper: 'dinner', neighbourhood: 'neighborhood', marriage: 'wedding',
  kitten: 'cat', kittens: 'cat', puppy: 'dog', puppies: 'dog', motorbike: 'motorcycle', spectacles: 'glasses', refrigerator: 'fridge',
  fractured: 'break', fracture: 'break',
  epileptic: 'epilepsy', autistic: 'autism', anaemic: 'anemia', anemic: 'anemia', anaemia: 'anemia', arthritic: 'arthritis',
  anxious: 'anxiety', pregnancy: 'pregnant', infant: 'baby', newborn: 'baby', grandkids: 'grandchild', grandkid: 'grandchild',
  grandchildren: 'grandchild', uni: 'university', exam: 'test', exams: 'test', retiree: 'retired', pensioner: 'retired',
  customer: 'client', customers: 'client', condo: 'apartment', gig: 'concert', gigs: 'concert', gamer: 'game', hillwalking: 'hike',
  trekking: 'hike', trek: 'hike', jog: 'run', jogging: 'run', jogs: 'run', relocated: 'move', relocate: 'move', relocating: 'move',
  relocates: 'move', completed: 'finish', complete: 'finish', completes: 'finish', assist: 'help', assists: 'help', talk: 'speak',
  talks: 'speak', talking: 'speak', require: 'need', requires: 'need', fix: 'repair', fixes: 'repair', mend: 'repair',
  sees: 'visit', see: 'visit', house: 'home', tiny: 'small', quick: 'fast', quickly: 'fast', wealthy: 'rich', pricey: 'expensive',
  costly: 'expensive', inexpensive: 'cheap', devout: 'religious', beverage: 'drink', beverages: 'drink', booze: 'alcohol',
  kilometres: 'km', kilometers: 'km', kms: 'km', kilos: 'kg', kilograms: 'kg', hours: 'hour', hrs: 'hour', hr: 'hour',
  mins: 'minute', min: 'minute', minutes: 'minute',
  frighten: 'afraid', frightens: 'afraid', scare: 'afraid', scares: 'afraid', cigarette: 'smoking', cigarettes: 'smoking',
  novel: 'book', novels: 'book', weight: 'weigh', litre: 'l', litres: 'l', liter: 'l', liters: 'l', lover: 'like', lovers: 'like',
};
