import { Clock, UnitOfWork } from '@brand/core';
import { CursorCodec } from '../listing/cursor-codec';

/** What route handlers pass on to use cases and list helpers. */
export interface RouterDeps {
  uow: UnitOfWork;
  clock: Clock;
  cursors: CursorCodec;
}
