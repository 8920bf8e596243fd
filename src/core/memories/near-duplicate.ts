// Is one memory the same fact as another in other words? A false "yes" hides
// a fact, a missed one costs a line, so the rule leans to "no": any sign of a
// different fact (another number, name, weekday, month, person, polarity,
// tense, wish or stance) vetoes, and what is left must mean the same by the
// current model's cosine, or, without vectors, by its content words. Texts are
// compared after the lexicon (near-duplicate-lexicon.ts) folds common
// paraphrases to one form. The thresholds were chosen on
// bench/dedupe/pairs.jsonl; docs/duplicates.md gives the figures.
import { FOLD, foldPhrases, IRREGULAR, NAME_ALIASES } from './near-duplicate-lexicon';

/** With vectors: the current model's cosine two veto-free texts must reach. */
export const MIN_COSINE = 0.6;
/** Without vectors: the share of content words two veto-free texts must have in common. */
export const MIN_WORDS = 0.5;
/**
 * With vectors, for two veto-free texts whose content words are the same once
 * folded ("teetotal" / "doesn't drink alcohol"): the model may not know the
 * lexicon's equivalence, so a lower cosine will do.
 */
export const MIN_COSINE_SAME_WORDS = 0.5;

const STOP = new Set(
  `a an the and or but of to in on at for with by from as is are was were be been being am it its this that these those there
   their they them he she his her him i me my we our you your user user's who whom which what when where how than then so
   very really just also too about around some any all each every most more much do does did has have had having get gets got
   s usually always one's own out up into while because only
   use uses used using take takes took taking go goes went going gone keep keeps kept hold holds held own owns make makes made
   named called call name pay pays work works come comes someone somebody per suffer suffers suffering
   often regularly frequently normally typically generally absolutely extremely truly totally deeply highly strongly quite fairly
   somewhat especially particularly incredibly super avid currently presently now recently still already actually definitely
   certainly receive receives received possess possesses utilise utilize utilises utilizes tend tends am pm`
    .split(/\s+/)
    .filter(Boolean),
);

const NUMBER_WORDS: Record<string, string> = {
  zero: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10',
  eleven: '11', twelve: '12', thirteen: '13', fourteen: '14', fifteen: '15', sixteen: '16', seventeen: '17', eighteen: '18',
  nineteen: '19', twenty: '20', thirty: '30', forty: '40', fifty: '50', sixty: '60', seventy: '70', eighty: '80', ninety: '90',
  hundred: '100', thousand: '1000', first: '1', second: '2', third: '3', fourth: '4', fifth: '5', sixth: '6', seventh: '7',
  eighth: '8', ninth: '9', tenth: '10', twice: '2', once: '1', half: '0.5', dozen: '12', both: '2',
};
const TENS = 'twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety';
const UNITS = 'one|two|three|four|five|six|seven|eight|nine';
/** "twenty-five" is 25, not 20 and 5. */
const COMPOUND_NUMBER = new RegExp(`\\b(${TENS})[- ](${UNITS})\\b`, 'g');

/** Words whose being different on the two sides means a different fact, each set one kind. */
const KINDS: string[][] = [
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'weekday', 'weekend', 'weekdays', 'weekends', 'mondays', 'tuesdays', 'wednesdays', 'thursdays', 'fridays', 'saturdays', 'sundays'],
  ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december', 'christmas', 'easter'],
  ['morning', 'mornings', 'afternoon', 'afternoons', 'evening', 'evenings', 'night', 'nights', 'noon', 'midnight', 'am', 'pm', 'day', 'daily', 'weekly', 'monthly', 'yearly'],
  ['spring', 'summer', 'autumn', 'fall', 'winter'],
  ['red', 'blue', 'green', 'yellow', 'black', 'white', 'brown', 'grey', 'gray', 'orange', 'purple', 'pink'],
  ['mother', 'father', 'parent', 'parents', 'sister', 'brother', 'sibling', 'son', 'daughter', 'child', 'baby', 'spouse', 'partner',
   'grandmother', 'grandfather', 'aunt', 'uncle', 'cousin', 'niece', 'nephew', 'friend', 'colleague', 'manager', 'boss', 'neighbor',
   'motherinlaw', 'fatherinlaw', 'sisterinlaw', 'brotherinlaw', 'soninlaw', 'daughterinlaw', 'inlaws', 'roommate', 'landlord', 'dentist', 'doctor', 'therapist'],
  ['left', 'right'],
  ['home', 'work', 'school'],
  ['half', 'full', 'whole', 'part'],
  ['high', 'low', 'normal'],
  ['big', 'small', 'little', 'large', 'quiet', 'loud'],
  ['last', 'next', 'previous', 'oldest', 'youngest', 'middle'],
  ['cat', 'cats', 'dog', 'dogs', 'rabbit', 'horse', 'bird', 'fish', 'hamster'],
];
const KIND_OF = new Map<string, number>();
const PERSON_KIND = 5;
/**
 * Kinds that narrow a fact when said on one side only: another person ("the
 * user's son"), a day of the week ("goes to bed at 11 on weekends"), a portion
 * ("a half marathon"), one occasion or one place in a row ("went skiing last
 * February" / "goes skiing every February", "the youngest of four siblings" /
 * "has four siblings").
 */
const ONE_SIDED_KINDS = new Set([PERSON_KIND, 0, 8, 11]);
KINDS.forEach((words, i) => words.forEach((w) => KIND_OF.set(w, i)));

/** Words that turn a statement into its opposite or into the past. */
const NEGATIONS = new Set(['not', 'no', 'never', 'cannot', 'nor', 'without', 'dislike', 'dislikes', 'hate', 'hates', 'avoid', 'avoids', 'skip', 'skips', 'refuses', 'refuse', 'abstains']);
const PAST = new Set(['used', 'former', 'formerly', 'anymore', 'longer', 'ex', 'stopped', 'quit', 'cancelled', 'canceled', 'had', 'previously', 'repaid']);
/** Leaving a place is not being there: "moved away from Berlin" / "moved to Berlin". */
const LEAVING = new Set(['away']);
/** A condition narrows a fact: "walks to work when it's sunny". */
const CONDITION = /\b(?:if|unless|whenever)\b|\bwhen (?:it|it's|it is|there|the weather|he|she|they|his|her|their)\b/;
/** "was"/"were" before a participle is a passive ("was born", "was stolen"); before anything else, a past state ("was vegan"). */
const PAST_STATE = /\b(?:was|were)\s+(?:(?:a|an|the)\s+)?([^\s.,;]+)/g;
const PARTICIPLE = /(?:ed|en|wn|d|t)$/;
const IRREGULAR_FORMS = new Set([...Object.keys(IRREGULAR), 'born', 'made', 'paid', 'put', 'cut', 'hit', 'set', 'shut', 'hurt', 'seen', 'done']);
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
/** "half past six" is 6.30: the hour as a digit. */
function hourOf(word: string): number | null {
  const n = /^\d+$/.test(word) ? Number(word) : Number(NUMBER_WORDS[word] ?? NaN);
  return n >= 1 && n <= 12 ? n : null;
}

/**
 * How a person stands to a place or a field: living there is not working,
 * studying, volunteering or growing up there ("works in Lille" / "lives in
 * Lille", "works as a nurse" / "studied nursing").
 */
const RELATION: Record<string, string> = {
  live: 'live', lives: 'live', lived: 'live', living: 'live',
  work: 'work', works: 'work', worked: 'work', working: 'work', job: 'work', jobs: 'work', office: 'work', employed: 'work',
  employee: 'work', profession: 'work', occupation: 'work',
  study: 'study', studies: 'study', studied: 'study', studying: 'study', student: 'study',
  volunteer: 'volunteer', volunteers: 'volunteer', volunteered: 'volunteer', volunteering: 'volunteer',
  teach: 'teach', teaches: 'teach', taught: 'teach', teaching: 'teach',
  grew: 'grew', raised: 'grew', born: 'born',
};
/**
 * Words that narrow a thing to a kind of it, an extent or a rank: "loves iced
 * coffee" is not "loves coffee", "is a practising Catholic" not "is Catholic",
 * "is mostly vegan" not "is vegan", "is a retired teacher" not "is a teacher".
 */
const NARROWING = new Set(
  `iced decaf decaffeinated sparkling fizzy skimmed skim unsweetened sweetened flavoured flavored instant organic frozen
   canned tinned raw homemade lite mild
   practising practicing devout lapsed observant strict
   retired trainee assistant apprentice junior senior deputy acting interim amateur aspiring freelance
   electric hybrid diesel petrol manual automatic secondhand vintage mini
   mostly mainly partly partially occasionally sometimes rarely seldom almost nearly slightly equally mostly barely hardly`
    .split(/\s+/)
    .filter(Boolean),
);
/**
 * A phrase after these words narrows the fact to an occasion, a company or an
 * addition ("likes dark chocolate with sea salt", "naps after lunch",
 * "weighed 70 kg before the pregnancy"): when the other side lacks its words,
 * it is another fact.
 */
/** Where one goes: "cycles to work" is not "cycles to the gym". */
const DESTINATION = /\b(?:to|at|from) (?:the |their |his |her |my |a )?(work|school|gym|pool|office|church|university|college|park|beach|shops|supermarket|library|market|pub|cinema|nursery|kindergarten)\b/g;
/** Being from a place is where one was born: "is from Galway" is not "lives in Galway". */
const ORIGIN = /\b(?:is|are|was|were|comes?|came|originally) from\b/;
/** Saving for a thing is a goal, not the thing: "is saving for a trip to Peru" / "went on a trip to Peru". */
const SAVING_FOR = /\bsav(?:e|es|ing)?\s+(?:up\s+)?(?:money\s+)?(?:for|to buy|to afford|towards)\b/;
/**
 * A span of time said of a state that goes on ("has worked at the library for
 * six years") or of one that ended ("worked at the library for six years").
 */
const DURATION = /\bfor (?:\S+ ){0,2}(?:years?|months?|weeks?|days?|decades?)\b/;
const ONGOING = /\b(?:has|have|'s|'ve)\s+(?!had\b)\w+/;
const QUALIFIER = new Set(['with', 'before', 'after', 'during', 'except', 'until', 'till', 'including', 'plus', 'besides']);

/** Wanting or planning is not having or doing. */
const WISH = new Set(['want', 'wants', 'wanted', 'wish', 'hope', 'hopes', 'hoping', 'plan', 'plans', 'planning', 'goal', 'dream', 'trying', 'try', 'tries', 'would', 'aims', 'aiming']);

export interface FactShape {
  /** Content words, folded and crudely stemmed. */
  words: Set<string>;
  numbers: Set<string>;
  names: Set<string>;
  negated: boolean;
  past: boolean;
  wish: boolean;
  /** Words of the kinds in KINDS, by kind. */
  kinds: Map<number, Set<string>>;
  /** The content words in their order. */
  order: string[];
  /** Says how two things compare ("over", "than", "but"): their order matters. */
  relational: boolean;
  /** Says leaving a place ("moved away from"). */
  leaving: boolean;
  /** Holds only under a condition ("when it's sunny", "if"). */
  conditional: boolean;
  /** How it stands to a place or field: live, work, study, volunteer, teach, grew, born. */
  relations: Set<string>;
  /** Narrowing words (NARROWING) it holds. */
  narrowing: Set<string>;
  /** Content words after a qualifying word (QUALIFIER). */
  qualified: Set<string>;
  /** Where it goes to or from (DESTINATION). */
  destinations: Set<string>;
  /** Says how long: true when the state goes on, false when it ended, null when no span is said. */
  ongoing: boolean | null;
}

/** Liking or learning a thing is not doing it: "prefers to work from home" / "works from home". Stemmed. */
const STANCE = ['lik', 'learn', 'allergic', 'afraid', 'intoler'];

const RELATIONAL = new Set(['over', 'than', 'but', 'rather', 'instead', 'versus', 'vs']);

function stripAccents(s: string): string {
  return s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
}

/** A crude stemmer, the same on both sides: "hiking"/"hike", "interruptions"/"interrupted" meet. */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 2) return w;
  // "sensitivity" / "sensitive", "activity" / "active".
  if (w.endsWith('ivity')) return stem(w.slice(0, -3));
  if (w.endsWith('ies') && w.length > 4) w = w.slice(0, -3) + 'y';
  else if (w.endsWith('s') && w.length > 3 && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  for (const suffix of ['ation', 'ion', 'ance', 'ant', 'ing', 'ed', 'ly']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  // "meditate" / "meditation", "translate" / "translation" meet.
  if (w.length >= 6 && w.endsWith('at')) w = w.slice(0, -2);
  if (w.length > 2 && /([b-df-hj-np-tv-z])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}

function plainText(text: string): string {
  let plain = stripAccents(text.normalize('NFKC')).replace(/[\u2018\u2019]/g, "'");
  for (const [re, to] of NAME_ALIASES) plain = plain.replace(re, to);
  // An amount with its currency sign is the amount and the currency's name: "€1200" / "1200 euros".
  plain = plain
    .replace(/€\s?(\d[\d.,]*k?)/g, ' $1 euros ')
    .replace(/\$\s?(\d[\d.,]*k?)/g, ' $1 dollars ')
    .replace(/£\s?(\d[\d.,]*k?)/g, ' $1 pounds ');
  // Blood groups as one name each: "O negative" / "O-negative" / "O-".
  if (/\bblood\b/i.test(plain)) {
    plain = plain
      .replace(/\b(AB|A|B|O)(?:[- ](?:negative|neg)\b|-(?=[\s.,;]|$))/g, '$1neg')
      .replace(/\b(AB|A|B|O)(?:[- ](?:positive|pos)\b|\+(?=[\s.,;]|$))/g, '$1pos');
  }
  return plain;
}

function foldedLower(plain: string): string {
  return foldPhrases(
    plain
      .toLowerCase()
      .replace(/\bcan't\b|\bcannot\b|\bcan not\b/g, ' cannot ')
      .replace(/\bwon't\b/g, ' will not ')
      .replace(/n't\b/g, ' not ')
      .replace(/\bno longer\b/g, ' not longer ')
      // An in-law is one relative: "father-in-law" is not the father.
      .replace(/\b(mother|father|sister|brother|son|daughter)-in-law\b/g, '$1inlaw')
      .replace(/\bin-laws\b|\bparents-in-law\b/g, 'inlaws')
      // Numbers written other ways: "1,200" / "1200", "85k" / "85000", "10k run" / "10 km run".
      .replace(/(\d),(?=\d{3}\b)/g, '$1')
      .replace(/(\d+)k (run|race)\b/g, '$1 km $2')
      .replace(/\b(\d+(?:\.\d+)?)k\b/g, (_, n: string) => String(Math.round(Number(n) * 1000)))
      // Dates and times written other ways: "2019-05-04" / "4 May 2019", "23:00" / "11 pm", "half past six" / "6.30".
      .replace(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g, (all, y: string, m: string, d: string) =>
        MONTHS[Number(m) - 1] ? `${Number(d)} ${MONTHS[Number(m) - 1]} ${y}` : all)
      .replace(/\b(1[3-9]|2[0-3])[:.](\d\d)\b/g, (_, h: string, m: string) => `${Number(h) - 12}.${m} pm`)
      .replace(/\b(half|quarter) (past|to) (\w+)\b/g, (all, part: string, dir: string, hour: string) => {
        const h = hourOf(hour);
        if (h === null) return all;
        if (dir === 'past') return `${h}.${part === 'half' ? '30' : '15'}`;
        return part === 'quarter' ? `${h === 1 ? 12 : h - 1}.45` : all;
      })
      .replace(/\b(\d+(?:[.:]\d\d)?) (?:at night|in the evening|in the afternoon)\b/g, '$1 pm')
      .replace(/\b(\d+(?:[.:]\d\d)?) in the morning\b/g, '$1 am')
      .replace(/(\d)(st|nd|rd|th)\b/g, '$1')
      .replace(/(\d+):(\d\d)/g, '$1.$2')
      .replace(COMPOUND_NUMBER, (_, tens: string, unit: string) => String(Number(NUMBER_WORDS[tens]) + Number(NUMBER_WORDS[unit])))
      .replace(/(\d)-(year|month|week|day)/g, '$1 $2')
      .replace(/(\d)([a-z]{1,3})\b/g, '$1 $2')
      .replace(/\s+/g, ' '),
  );
}

/** The text in the lexicon's wording, lowercased: "User has hypertension." → "user has high blood pressure ." */
export function foldedText(text: string): string {
  return foldedLower(plainText(text));
}

/** The parts of a fact the rule compares; computed once per text. */
export function factShape(text: string): FactShape {
  const plain = plainText(text);
  // Names: capitalised words that do not start a sentence, and words with inner capitals or digits (iPhone, MacBook).
  const names = new Set<string>();
  const rawWords = plain.split(/[\s,;:()"!?]+/).filter(Boolean);
  rawWords.forEach((w, i) => {
    const bare = w.replace(/[.'’]+$/g, '').replace(/'s$/, '');
    const startsSentence = i === 0 || /[.!?]$/.test(rawWords[i - 1] ?? '');
    if (!bare || /^(User|I|Dr|Mr|Mrs|Ms)$/.test(bare)) return;
    if (KIND_OF.has(bare.toLowerCase().replace(/s$/, '')) || KIND_OF.has(bare.toLowerCase())) return;
    if (/^\p{Lu}/u.test(bare) && !startsSentence) names.add(bare.toLowerCase());
    else if (/\p{Ll}\p{Lu}/u.test(bare)) names.add(bare.toLowerCase());
  });
  const lower = foldedLower(plain);
  const tokens = lower.split(/[^\p{L}\p{N}.@]+/u).map((t) => t.replace(/^[.-]+|[.-]+$/g, '')).filter(Boolean);
  const words = new Set<string>();
  const numbers = new Set<string>();
  const kinds = new Map<number, Set<string>>();
  let negated = false;
  let past = false;
  let wish = false;
  let relational = false;
  let leaving = false;
  let qualifying = false;
  const relations = new Set<string>();
  const narrowing = new Set<string>();
  const qualified = new Set<string>();
  const conditional = CONDITION.test(lower);
  const destinations = new Set([...lower.matchAll(DESTINATION)].map((m) => FOLD[m[1]!] ?? m[1]!));
  if (ORIGIN.test(lower)) relations.add('born');
  const ongoing = DURATION.test(lower) ? ONGOING.test(lower) : null;
  if (SAVING_FOR.test(lower)) wish = true;
  for (const m of lower.matchAll(PAST_STATE)) {
    const w = m[1]!;
    if (!PARTICIPLE.test(w) && !IRREGULAR_FORMS.has(w)) past = true;
  }
  const order: string[] = [];
  for (const raw of tokens) {
    const bare = raw.replace(/'s$/, '');
    const t = IRREGULAR[bare] ?? bare;
    if (/\d/.test(t) || t.includes('@')) {
      // "b12", "iphone13", an address: a name as much as a number.
      if (/\p{L}/u.test(t)) names.add(t);
      if (/\d/.test(t)) numbers.add(t.replace(/\.0+$/, ''));
      continue;
    }
    const kindFirst = KIND_OF.get(t);
    if (kindFirst !== undefined) {
      const set = kinds.get(kindFirst) ?? new Set<string>();
      set.add(stem(FOLD[t] ?? t));
      kinds.set(kindFirst, set);
    }
    if (NUMBER_WORDS[t] !== undefined) {
      numbers.add(NUMBER_WORDS[t]!);
      continue;
    }
    if (NEGATIONS.has(t)) negated = true;
    if (PAST.has(t)) past = true;
    if (WISH.has(t)) wish = true;
    if (RELATIONAL.has(t) || (t === 'to' && /\bprefer/.test(lower))) relational = true;
    if (LEAVING.has(t)) leaving = true;
    if (RELATION[t]) relations.add(RELATION[t]!);
    if (NARROWING.has(t)) narrowing.add(t);
    if (QUALIFIER.has(t)) qualifying = true;
    const once = FOLD[t] ?? t;
    const folded = FOLD[once] ?? once;
    // Having died is a change of state, as "used to" is.
    if (folded === 'died') past = true;
    const kind = KIND_OF.get(folded);
    if (kind !== undefined && kindFirst === undefined) {
      const set = kinds.get(kind) ?? new Set<string>();
      set.add(stem(folded));
      kinds.set(kind, set);
    }
    if (STOP.has(t) || STOP.has(folded) || NEGATIONS.has(t) || PAST.has(t) || WISH.has(t)) continue;
    const w = stem(folded);
    words.add(w);
    if (qualifying) qualified.add(w);
    if (order[order.length - 1] !== w) order.push(w);
  }
  return { words, numbers, names, negated, past, wish, kinds, order, relational, leaving, conditional, relations, narrowing, qualified, destinations, ongoing };
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/** Every word of `a` is in `b`. */
function within(a: Set<string>, b: Set<string>): boolean {
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/** Something in one that is not in the other, both ways: a substitution, not an addition. */
function substituted(a: Set<string>, b: Set<string>): boolean {
  let aOnly = false;
  let bOnly = false;
  for (const x of a) if (!b.has(x)) aOnly = true;
  for (const x of b) if (!a.has(x)) bOnly = true;
  return aOnly && bOnly;
}

/** Why the two cannot be one fact, or null. */
export function veto(a: FactShape, b: FactShape): string | null {
  if (a.numbers.size > 0 && b.numbers.size > 0 && !sameSet(a.numbers, b.numbers)) return 'numbers';
  // A count on one side only ("has a cat" / "has two cats"); "once a month" is "monthly".
  if ((a.numbers.size > 0) !== (b.numbers.size > 0) && [...a.numbers, ...b.numbers].some((n) => n !== '1')) return 'count';
  if (substituted(a.names, b.names)) return 'names';
  if (a.negated !== b.negated) return 'negation';
  if (a.past !== b.past) return 'tense';
  if (a.ongoing !== null && b.ongoing !== null && a.ongoing !== b.ongoing) return 'tense';
  if (a.wish !== b.wish) return 'wish';
  if (a.leaving !== b.leaving) return 'leaving';
  // A condition whose words the other side lacks narrows the fact ("walks to work when it's sunny" / "walks to work").
  if (a.conditional && !b.conditional && !within(a.words, b.words)) return 'condition';
  if (b.conditional && !a.conditional && !within(b.words, a.words)) return 'condition';
  if (a.relations.size > 0 && b.relations.size > 0 && !sameSet(a.relations, b.relations)) return 'relation';
  if (!sameSet(a.narrowing, b.narrowing)) return 'narrowed';
  if (a.destinations.size > 0 && b.destinations.size > 0 && !sameSet(a.destinations, b.destinations)) return 'destination';
  if (!within(a.qualified, b.words) || !within(b.qualified, a.words)) return 'qualified';
  for (const [kind, words] of a.kinds) {
    const other = b.kinds.get(kind);
    if (other && !sameSet(words, other)) return 'kind';
    // A person of another relation, or one named on one side only ("the user's son" vs "the user"), is another fact.
    if (ONE_SIDED_KINDS.has(kind) && !other) return kind === PERSON_KIND ? 'person' : 'narrowed';
  }
  for (const kind of b.kinds.keys()) if (ONE_SIDED_KINDS.has(kind) && !a.kinds.has(kind)) return kind === PERSON_KIND ? 'person' : 'narrowed';
  for (const w of STANCE) if (a.words.has(w) !== b.words.has(w)) return 'stance';
  // One thing said in place of another ("peanuts" / "shellfish", "oat" / "almond"): a related fact, not the same one.
  if (substituted(a.words, b.words)) return 'swap';
  // The same words in another order that changes who is what ("tea over coffee" / "coffee over tea").
  if (sameSet(a.words, b.words) && a.order.join(' ') !== b.order.join(' ') && (a.relational || b.relational)) return 'order';
  return null;
}

/** Share of the smaller side's content words found in the other. */
export function wordOverlap(a: FactShape, b: FactShape): number {
  const [small, big] = a.words.size <= b.words.size ? [a.words, b.words] : [b.words, a.words];
  if (small.size === 0) return big.size === 0 ? 1 : 0;
  let n = 0;
  for (const w of small) if (big.has(w)) n++;
  const jaccardish = n / (small.size + big.size - n);
  return (n / small.size + jaccardish) / 2;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export interface DuplicateThresholds {
  cosine: number;
  words: number;
  /** The cosine bar when the folded content words are the same. */
  sameWords: number;
}

export const DUPLICATE_THRESHOLDS: DuplicateThresholds = { cosine: MIN_COSINE, words: MIN_WORDS, sameWords: MIN_COSINE_SAME_WORDS };

/** The normalised text two exact duplicates share. */
export function normalisedFact(text: string): string {
  return stripAccents(text.normalize('NFKC')).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * The rule. `cos` is the current model's cosine of the two texts, or null when
 * either has no vector yet: then the content words alone decide, with a
 * stricter bar.
 */
export function isNearDuplicate(
  a: string | FactShape,
  b: string | FactShape,
  cos: number | null,
  t: DuplicateThresholds = DUPLICATE_THRESHOLDS,
): boolean {
  if (typeof a === 'string' && typeof b === 'string' && normalisedFact(a) === normalisedFact(b)) return true;
  const sa = typeof a === 'string' ? factShape(a) : a;
  const sb = typeof b === 'string' ? factShape(b) : b;
  if (veto(sa, sb)) return false;
  if (cos === null) return wordOverlap(sa, sb) >= t.words;
  return cos >= (sa.words.size > 0 && sameSet(sa.words, sb.words) ? t.sameWords : t.cosine);
}
