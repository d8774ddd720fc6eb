export { alignCharacters, alignWords, type AlignmentOp, type AlignmentRun } from './align.js';
export { characterConfusions, type CharacterConfusion } from './confusions.js';
export { editDistance, editDistanceOf } from './distance.js';
export { characterErrorRate, compareTexts, wordErrorRate, type TextComparison } from './measures.js';
export { NORMALISATIONS, normalise, type Normalisation } from './normalise.js';
