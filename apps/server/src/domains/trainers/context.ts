import type { Deps } from '../../platform/deps';
import type { FileStore } from '../../platform/ports/files';

/** What the trainer use cases reach: the dependencies and the file store of the pictures. */
export interface TrainerCtx {
  deps: Deps;
  files: FileStore;
}
