import { chatFindText } from '@shared/contracts/routes/chatFind.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'
import { findInChat } from '../presenter/sessionPresenter/findInChat'

export function registerChatFindRoutes(
  router: Router,
  { agentRuntime }: Pick<Presenters, 'agentRuntime'>
): void {
  router.handle(chatFindText, ({ sessionId, query }) =>
    findInChat((page) => agentRuntime.getMessages(sessionId, page), query)
  )
}
