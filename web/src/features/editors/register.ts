import { lazyComponent, registerFileEditor } from '../../core/registry';

/**
 * The File Explorer's editor of a file (features/assets opens it through the registry: this
 * feature uses the explorer's asset picker, so the explorer cannot import it).
 */
registerFileEditor(lazyComponent(() => import('./FileEditorView')));
