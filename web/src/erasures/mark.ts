// Pure and a leaf: what an erased span reads as in a text (docs/api.md, "Erasures"), for
// every module that must tell it from words, without pulling the rest of erasures' wording in.
export const ERASED_MARK = '[erased]'
