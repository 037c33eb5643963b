// What the key in use was refused, as the server said it (403 `forbidden` names the key's
// role and the permission). The API has no call that says what a key may do, so the UI offers
// erasing until the server refuses it once, then says why in place of the offer, for as long
// as the same key is used.
import { useSyncExternalStore } from 'react'
import { ApiError, getApiKey } from '../api'

export interface Refusal {
  /** The key's role, as the server named it ("agent", "reader"). */
  role: string
  permission: string
}

const refused = new Map<string, Refusal>()
const listeners = new Set<() => void>()
let stamp = 0

const slot = (permission: string) => `${getApiKey() ?? ''}\u0000${permission}`

/** Keeps a 403 the server answered: true when it was one (the caller then says why). */
export function noteRefusal(error: ApiError | null | undefined): boolean {
  if (!error || error.status !== 403 || error.code !== 'forbidden') return false
  const permission = typeof error.details.permission === 'string' ? error.details.permission : null
  const role = typeof error.details.role === 'string' ? error.details.role : 'this'
  if (!permission) return true
  refused.set(slot(permission), { role, permission })
  stamp += 1
  listeners.forEach((l) => l())
  return true
}

/** Forgets every refusal (a key entered anew may be another's; tests start from none). */
export function clearRefusals(): void {
  refused.clear()
  stamp += 1
  listeners.forEach((l) => l())
}

/** What the key in use was refused for `permission`, if it was. */
export function refusalFor(permission: string): Refusal | null {
  return refused.get(slot(permission)) ?? null
}

/** The same, kept up to date: a refusal anywhere hides the offer everywhere. */
export function useRefusal(permission: string): Refusal | null {
  useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => stamp,
  )
  return refusalFor(permission)
}

const ARTICLE = (role: string) => (/^[aeiou]/i.test(role) ? 'an' : 'a')

/** Why the key cannot erase, and what can. */
export function refusalWords(r: Refusal): string {
  return `This key is ${ARTICLE(r.role)} ${r.role}’s: erasing needs a reviewer’s or an admin’s key.`
}
