import providers from './providers'
import mcp from './mcp'
import mcpRegistry from './mcpRegistry'
import memory from './memory'
import skills from './skills'
import image from './image'
import knowledgeSettings from './knowledgeSettings'
import webSettings from './webSettings'
import agentsSettings from './agentsSettings'

// Strings only the settings pages use: loaded when one opens (windowI18n.loadSettingsMessages),
// not in the window's first load.
export default {
  ...providers,
  ...mcp,
  ...mcpRegistry,
  ...memory,
  ...skills,
  ...image,
  ...knowledgeSettings,
  ...webSettings,
  ...agentsSettings
}
