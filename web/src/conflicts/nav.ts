// Any panel can send the reader to a conflict (a decision whose sources disagree, a claim in
// one): the workspace opens the conflicts tab on it.
import { createContext, useContext } from 'react'

export type OpenConflict = (conflictId: string) => void

export const ConflictNavCtx = createContext<OpenConflict | null>(null)

/** Opens the conflicts panel on a conflict; null outside a workspace view. */
export function useOpenConflict(): OpenConflict | null {
  return useContext(ConflictNavCtx)
}
