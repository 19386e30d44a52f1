import common from './common'
import chat from './chat'
import settings from './settings'
import settingsCommon from './settingsCommon'
import providers from './providers'
import mcp from './mcp'
import mcpToolPins from './mcpToolPins'
import mcpRegistry from './mcpRegistry'
import permissions from './permissions'
import agentTools from './agentTools'
import desktop from './desktop'
import approvals from './approvals'
import commandPreview from './commandPreview'
import layout from './layout'
import checkpoints from './checkpoints'
import image from './image'
import knowledgeSettings from './knowledgeSettings'
import webSettings from './webSettings'
import agentsSettings from './agentsSettings'
import web from './web'
import knowledge from './knowledge'
import memory from './memory'
import skills from './skills'
import acp from './acp'
import composer from './composer'
import messages from './messages'
import chatWindow from './chatWindow'
import compare from './compare'

export default {
  ...common,
  ...chat,
  ...settings,
  ...settingsCommon,
  ...providers,
  ...mcp,
  ...mcpToolPins,
  ...mcpRegistry,
  ...permissions,
  ...agentTools,
  ...desktop,
  ...approvals,
  ...commandPreview,
  ...layout,
  ...checkpoints,
  ...image,
  ...knowledgeSettings,
  ...webSettings,
  ...agentsSettings,
  ...web,
  ...knowledge,
  ...memory,
  ...skills,
  ...acp,
  ...composer,
  ...messages,
  ...chatWindow,
  ...compare
}
