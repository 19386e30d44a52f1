// 设置 › 图像生成 (#19)。
export default {
  settingsImage: {
    nav: '图像生成',
    title: '图像生成',
    subtitle: 'image_generate 工具使用的模型。未设置时，对话不会获得该工具。',
    model: '图像模型',
    off: '关闭：不生成图像',
    noModels:
      '没有已启用的图像模型（如 gpt-image-1、dall-e-3、imagen 或 Gemini 图像模型）：请在“模型服务商”中为 OpenAI 或 Gemini 服务商添加或启用。',
    showAll: '同时列出名称上看不出能生成图像的模型',
    otherModels: '其他模型',
    saved: '对话现在可以用此模型生成图像。',
    turnedOff: '图像生成已关闭。'
  }
}
