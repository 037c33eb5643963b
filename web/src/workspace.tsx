// What every panel of an open workspace shares: its id, who is who (names and statuses, read
// from the latest graph) and the moment shown. What each panel reads is in the query cache
// (query.ts), read again after every change, so it shows the status the graph shows.
import { createContext, useContext } from 'react'
import { NO_NAMES, type Names } from './names'

export interface WorkspaceContext {
  ws: string
  names: Names
  /** The moment the workspace is shown as of (epoch ms), or null for now: panels read the
   *  past then, and offer no changes. */
  asOf?: number | null
}

export const WorkspaceCtx = createContext<WorkspaceContext>({ ws: '', names: NO_NAMES, asOf: null })

export function useWorkspace(): WorkspaceContext {
  return useContext(WorkspaceCtx)
}

/** A node's status as the graph shows it now, or the panel's own copy when the graph lacks it. */
export function useLiveStatus(id: string, fallback: string | null | undefined): string | null {
  const { names } = useWorkspace()
  return names.get(id)?.status ?? fallback ?? null
}
