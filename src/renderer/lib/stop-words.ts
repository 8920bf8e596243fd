// Words too common to count as a match worth naming or highlighting (why recalled, knowledge excerpts).

export const STOP = new Set(
  'a an and are as at be but by for from has have i in is it its me my of on or our so that the their them they this to was we were what when where which who why with you your do did does not no yes how'.split(
    ' ',
  ),
);
