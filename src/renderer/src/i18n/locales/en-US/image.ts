// Settings › Image generation (#19).
export default {
  settingsImage: {
    nav: 'Image generation',
    title: 'Image generation',
    subtitle: 'The model the image_generate tool uses. Without one, chats do not get the tool.',
    model: 'Image model',
    off: 'Off: no image generation',
    noModels:
      'No enabled image model (such as gpt-image-1, dall-e-3, imagen or a Gemini image model) of an OpenAI or Gemini provider: add or enable one in Model providers.',
    showAll: 'Also list models whose names do not say they make images',
    otherModels: 'Other models',
    saved: 'Chats can now generate images with this model.',
    turnedOff: 'Image generation is off.'
  }
}
