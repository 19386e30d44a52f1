import common from './common'
import chat from './chat'
import settings from './settings'

export default { ...common, ...chat, ...settings }
