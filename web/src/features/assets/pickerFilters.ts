/** Which assets a picker offers (spec 2 §2, §5): never folders or dot-files, nor excluded extensions. */
import { extensionOf, isFolder, type Asset } from '../../api/assets';

export type PickerVariant = 'image' | 'pdf' | 'word' | 'any';

/** The extensions each variant accepts (the image picker: .png, .jpg, .jpeg, .gif, .webp); null: any. */
export const PICKER_EXTENSIONS: Record<PickerVariant, readonly string[] | null> = {
  image: ['png', 'jpg', 'jpeg', 'gif', 'webp'],
  pdf: ['pdf'],
  word: ['doc', 'docx'],
  any: null,
};

/** Never offered by a picker: workspace plumbing, not content. */
export const EXCLUDED_EXTENSIONS = ['schema', 'map'] as const;

export function pickerShows(variant: PickerVariant, asset: Asset): boolean {
  if (isFolder(asset) || asset.name.startsWith('.')) return false;
  const ext = extensionOf(asset.name);
  if ((EXCLUDED_EXTENSIONS as readonly string[]).includes(ext)) return false;
  const allowed = PICKER_EXTENSIONS[variant];
  return allowed === null || allowed.includes(ext);
}
