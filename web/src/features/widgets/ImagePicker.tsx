/** The image picker field widget: AssetSelector with the images variant (see AssetSelector.tsx). */
export { ImagePicker, type ImagePickerProps } from './AssetSelector';
