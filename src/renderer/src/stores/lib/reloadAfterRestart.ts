import { onConnectionChange } from '@renderer/api/bridge'

let armed = false

/**
 * After a restore was staged in the browser, the host must restart to apply it; the page then
 * reconnects to a back end with other data. Reloading on that reconnect means no store keeps
 * showing the chats of before the restore.
 */
export function reloadWhenHostRestarts(reload: () => void = () => window.location.reload()): void {
  if (armed) return
  armed = true
  let lost = false
  onConnectionChange((connected) => {
    if (!connected) lost = true
    else if (lost) reload()
  })
}
