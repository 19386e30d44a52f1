export default {
  settingsCommon: { close: 'Close', cancel: 'Cancel', save: 'Save' }
}
