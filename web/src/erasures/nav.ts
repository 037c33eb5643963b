// Any panel can send the reader to an erasure or a request to forget (a withheld claim names
// the request that withholds it): the workspace opens the erasures tab on it.
import { createContext, useContext } from 'react'

export type OpenErasure = (erasureId: string) => void

export const ErasureNavCtx = createContext<OpenErasure | null>(null)

/** Opens the erasures tab on an erasure or a request; null outside a workspace view. */
export function useOpenErasure(): OpenErasure | null {
  return useContext(ErasureNavCtx)
}
