import { shallowRef } from 'vue'
import type { KnowledgeSource } from '@shared/types/knowledge'

/**
 * The cited place the source viewer shows (null: closed). A module of its own so a chat opens
 * the viewer without loading it, or the knowledge store, before the first citation is clicked.
 */
export const viewedSource = shallowRef<Pick<KnowledgeSource, 'baseId' | 'path' | 'location'> | null>(null)

export function openSourceViewer(source: Pick<KnowledgeSource, 'baseId' | 'path' | 'location'>): void {
  viewedSource.value = { baseId: source.baseId, path: source.path, location: source.location }
}

export function closeSourceViewer(): void {
  viewedSource.value = null
}
