import type en from '../en-US/settingsCommon'

export default {
  settingsCommon: { close: '关闭', cancel: '取消', save: '保存' }
} satisfies typeof en
