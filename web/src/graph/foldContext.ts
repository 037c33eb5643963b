// The canvas hands nodes one stable callback to fold and unfold a source's claims (node
// components are module-level and memoised, so a prop would not reach them).
import { createContext } from 'react'

export const ToggleFoldCtx = createContext<(sourceId: string) => void>(() => {})
