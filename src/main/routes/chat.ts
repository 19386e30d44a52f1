import {
  chatCancelQueued,
  chatDeleteMessage,
  chatEditAndResend,
  chatGetMessage,
  chatGetMessages,
  chatListQueue,
  chatRespondToolInteraction,
  chatRestoreMessages,
  chatRetry,
  chatSelectVariant,
  chatSendMessage,
  chatStop
} from '@shared/contracts/routes/chat.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerChatRoutes(
  router: Router,
  { agentRuntime, pathGrants }: Pick<Presenters, 'agentRuntime' | 'pathGrants'>
): void {
  // A new chat's folder from the page is a pick token or one main already holds (pathGrants).
  router.handle(chatSendMessage, (input, { clientId }) => {
    const folder = input.newSession?.workspaceDir
    if (input.sessionId || !folder) return agentRuntime.sendMessage(input)
    const workspaceDir = pathGrants.folderFrom(folder, clientId)
    return agentRuntime.sendMessage({ ...input, newSession: { ...input.newSession, workspaceDir } })
  })
  router.handle(chatStop, ({ sessionId }) => agentRuntime.stop(sessionId))
  router.handle(chatRespondToolInteraction, (input) => agentRuntime.respondToolInteraction(input))
  router.handle(chatGetMessages, ({ sessionId, ...page }) => agentRuntime.getMessages(sessionId, page))
  router.handle(chatGetMessage, ({ messageId }) => ({ message: agentRuntime.getMessage(messageId) }))
  router.handle(chatRetry, ({ sessionId, messageId }) => agentRuntime.retry(sessionId, messageId))
  router.handle(chatEditAndResend, ({ sessionId, messageId, text }) =>
    agentRuntime.editAndResend(sessionId, messageId, text)
  )
  router.handle(chatSelectVariant, ({ sessionId, messageId }) =>
    agentRuntime.selectVariant(sessionId, messageId)
  )
  router.handle(chatDeleteMessage, ({ sessionId, messageId }) =>
    agentRuntime.deleteMessage(sessionId, messageId)
  )
  router.handle(chatRestoreMessages, ({ sessionId, messageIds }) =>
    agentRuntime.restoreMessages(sessionId, messageIds)
  )
  router.handle(chatListQueue, ({ sessionId }) => ({ items: agentRuntime.listQueue(sessionId) }))
  router.handle(chatCancelQueued, ({ sessionId, inputId }) => ({
    removed: agentRuntime.cancelQueued(sessionId, inputId)
  }))
}
