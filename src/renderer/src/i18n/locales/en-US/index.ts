import common from './common'
import chat from './chat'
import settings from './settings'

// One file per domain; each domain adds its import here. Top-level keys must not collide.
export default { ...common, ...chat, ...settings }
