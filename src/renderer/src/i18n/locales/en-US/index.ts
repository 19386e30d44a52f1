import core from './index.core'
import settingsPages from './index.settings'

// Every en-US message: the window's first-load part and the settings pages' part.
export default { ...core, ...settingsPages }
