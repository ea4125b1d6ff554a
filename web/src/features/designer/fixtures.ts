/** Test fixtures of the page designer. */
/** A probe with every property type of spec 2 §2. */
export const ALL_TYPES_PROBE = {
  name: 'Everything',
  properties: [
    { name: 'text', label: 'Text', editor: 'TextInput', default: 'Hello' },
    { name: 'rich', label: 'Rich', editor: 'RichTextInput', default: '<p>x</p>' },
    { name: 'flag', label: 'Flag', editor: 'CheckBox', default: true },
    { name: 'colour', label: 'Colour', editor: 'ColorInput', default: '#ffffff' },
    { name: 'choice', label: 'Choice', editor: 'DropDown', options: ['a', { value: 'b', label: 'Bee' }], default: 'a' },
    { name: 'asset', label: 'Asset', editor: 'AssetManager', default: '' },
    { name: 'link', label: 'Link', editor: 'LinkManager', default: '' },
    { name: 'page', label: 'Target page', editor: 'PageSelector', default: '' },
    { name: 'key', label: 'Key', editor: 'TranslationSelector', default: 'TXT_A' },
    { name: 'json', label: 'Json', editor: 'JsonEditor', default: { a: 1 } },
    {
      name: 'items',
      label: 'Items',
      editor: 'SubEditor',
      default: [],
      properties: [
        { name: 'label', label: 'Label', editor: 'TextInput', default: 'New' },
        { name: 'on', label: 'On', editor: 'CheckBox', default: false },
      ],
    },
    { name: 'odd', editor: 'Sparkles' },
    { label: 'no name', editor: 'TextInput' },
  ],
};

/** An instance of the probe above. */
export const ALL_TYPES_INSTANCE = {
  type: 'everything',
  data: {
    text: 'Hello',
    rich: '<p>Rich</p>',
    flag: true,
    colour: '#ff0000',
    choice: 'b',
    asset: 'assets/img/a.png',
    link: 'https://example.com',
    page: 'home',
    key: 'TXT_A',
    json: { a: 1 },
    items: [
      { label: 'One', on: true },
      { label: 'Two', on: false },
    ],
  },
};

export const SITEMAP = {
  id: 'master-page',
  title: 'Master Page',
  url: '/index.html',
  isMaster: true,
  children: [
    { id: 'home', title: 'Home', url: '/pages/home.html', children: [] },
    {
      id: 'weather',
      title: 'Weather',
      url: '/pages/weather.html',
      parameters: [{ name: 'airport', required: true }],
      children: [],
    },
  ],
};
