import type { Create, CreateStore, Handler } from "./types";

/** Makes a store and a hook bound to it. */
export const create = (<T>(createState: StateCreator<T> | undefined) =>
  createState ? createImpl(createState) : createImpl) as Create;

export const createStore = ((createState) =>
  createState ? createStoreImpl(createState) : createStoreImpl) as CreateStore;

const handle = (async (request: Request) => {
  return respond(request);
}) satisfies Handler;

const limits = { max: 10 } as const;
