import common from './common'
import chat from './chat'
import settings from './settings'
import settingsCommon from './settingsCommon'
import mcpToolPins from './mcpToolPins'
import permissions from './permissions'
import agentTools from './agentTools'
import desktop from './desktop'
import approvals from './approvals'
import commandPreview from './commandPreview'
import layout from './layout'
import checkpoints from './checkpoints'
import web from './web'
import knowledge from './knowledge'
import acp from './acp'
import composer from './composer'
import messages from './messages'
import chatWindow from './chatWindow'
import compare from './compare'

// The domains the window needs from its first paint (index.settings.ts: the settings pages' own,
// loaded when a settings page opens). One file per domain; top-level keys must not collide.
export default {
  ...common,
  ...chat,
  ...settings,
  ...settingsCommon,
  ...mcpToolPins,
  ...permissions,
  ...agentTools,
  ...desktop,
  ...approvals,
  ...commandPreview,
  ...layout,
  ...checkpoints,
  ...web,
  ...knowledge,
  ...acp,
  ...composer,
  ...messages,
  ...chatWindow,
  ...compare
}
