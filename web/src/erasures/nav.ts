// Any panel can send the reader to an erasure or a request to forget (a withheld claim names
// the request that withholds it): the workspace opens the erasures tab on it.
import { createContext, useContext } from 'react'
import type { ErasurePreview } from '../apiTypes'

export type OpenErasure = (erasureId: string) => void

export const ErasureNavCtx = createContext<OpenErasure | null>(null)

/** Opens the erasures tab on an erasure or a request; null outside a workspace view. */
export function useOpenErasure(): OpenErasure | null {
  return useContext(ErasureNavCtx)
}

/** Shows an erasure's preview on the graph (null: none shown), from the panel that made it. */
export type ShowErasure = (preview: ErasurePreview | null) => void

export const ErasurePreviewCtx = createContext<ShowErasure | null>(null)

/** Where an erasure's preview is shown on the graph; null outside a workspace view. */
export function useShowErasure(): ShowErasure | null {
  return useContext(ErasurePreviewCtx)
}
