import { agentToolsList, agentToolsSetEnabled } from '@shared/contracts/routes/agentTools.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'
import { agentToolSettings, setAgentToolEnabled } from '../presenter/toolPresenter/agentToolSettings'

export function registerAgentToolRoutes(
  router: Router,
  { tools, config }: Pick<Presenters, 'tools' | 'config'>
): void {
  router.handle(agentToolsList, () => agentToolSettings(tools.agentTools, config))
  router.handle(agentToolsSetEnabled, ({ name, enabled }) =>
    setAgentToolEnabled(tools.agentTools, config, name, enabled)
  )
}
