import type { FileStore } from '../../adapters/files';
import type { Deps } from '../../platform/deps';

/** What the trainer use cases reach: the dependencies and the file store of the pictures. */
export interface TrainerCtx {
  deps: Deps;
  files: FileStore;
}
