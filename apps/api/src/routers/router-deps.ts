import { Clock, SecretHasher, UnitOfWork } from '@brand/core';
import { ImageServices } from '../infrastructure/image-services';
import { CursorCodec } from '../listing/cursor-codec';

/** What route handlers pass on to use cases and list helpers. */
export interface RouterDeps {
  uow: UnitOfWork;
  clock: Clock;
  /** Random public ids (order channels). */
  hasher: SecretHasher;
  cursors: CursorCodec;
  /** Downloads images and keeps their bytes (image syncs; `downloadImages` takes them as they are). */
  images: ImageServices;
}
