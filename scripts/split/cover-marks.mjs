// The number of cover.mjs's first report: a region's report is this plus its index, above any
// function's ordinal, so that profile.mjs records both through the one import.
export const MARKS_FROM = 1_000_000;
