// Wire shapes of the conflicts API (docs/api.md, "Conflicts"): the API's own, generated into
// apiTypes.ts from its OpenAPI document. Only the reviewer's choice is the UI's.
export type {
  Conflict,
  ConflictClaim,
  ConflictKind,
  ConflictSide,
  ConflictStatus,
  Resolution,
  ResolutionApplied,
  ResolutionPreview,
} from '../apiTypes'

/** Keep one value (a claim of its side), or dismiss the conflict (every value can be true). */
export type Choice = { keep: string } | { dismiss: true }
