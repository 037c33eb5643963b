// Tests render panels inside a query cache of their own, as the app does (query.ts).
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { newQueryClient } from './query'

export function withQueries(node: ReactNode, client: QueryClient = newQueryClient()) {
  return <QueryClientProvider client={client}>{node}</QueryClientProvider>
}
