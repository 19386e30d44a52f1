// Settings › Image generation (#19).
export default {
  settingsImage: {
    nav: 'Image generation',
    title: 'Image generation',
    subtitle: 'The model the image_generate tool uses. Without one, chats do not get the tool.',
    model: 'Image model',
    off: 'Off: no image generation',
    noModels: 'No enabled model of an OpenAI or Gemini provider: add or enable one in Model providers.',
    saved: 'Chats can now generate images with this model.',
    turnedOff: 'Image generation is off.'
  }
}
