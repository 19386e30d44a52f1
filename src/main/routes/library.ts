import {
  libraryDeleteAssistant,
  libraryDeletePrompt,
  libraryExpandMcpPrompt,
  libraryListAssistants,
  libraryListPrompts,
  librarySaveAssistant,
  librarySavePrompt
} from '@shared/contracts/routes/library.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'
import { expandMcpPrompt } from '../presenter/libraryPresenter/mcpPrompt'

export function registerLibraryRoutes(
  router: Router,
  { library, mcp, attachments }: Pick<Presenters, 'library' | 'mcp' | 'attachments'>
): void {
  router.handle(libraryListPrompts, () => ({ prompts: library.listPrompts() }))
  router.handle(librarySavePrompt, ({ prompt }) => ({ prompt: library.savePrompt(prompt) }))
  router.handle(libraryDeletePrompt, ({ id }) => ({ deleted: library.deletePrompt(id) }))
  router.handle(libraryListAssistants, () => ({ assistants: library.listAssistants() }))
  router.handle(librarySaveAssistant, ({ assistant }) => ({ assistant: library.saveAssistant(assistant) }))
  router.handle(libraryDeleteAssistant, ({ id }) => ({ deleted: library.deleteAssistant(id) }))
  router.handle(libraryExpandMcpPrompt, (input) =>
    expandMcpPrompt(
      {
        getPrompt: (serverId, name, args) => mcp.getPrompt(serverId, name, args),
        addBytes: (name, mimeType, bytes) => attachments.addBytes(name, mimeType, bytes),
        fromMcpResource: (serverId, uri, name) => attachments.fromMcpResource(serverId, uri, name)
      },
      input
    )
  )
}
