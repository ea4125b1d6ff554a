/** What other features use of the asset manager: the picker (the JSON editor, link widgets). */
export { AssetPicker, type AssetPickerProps } from './AssetPicker';
export { pickerShows, PICKER_EXTENSIONS, type PickerVariant } from './pickerFilters';
