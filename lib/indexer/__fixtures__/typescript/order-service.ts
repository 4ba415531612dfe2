import { EventEmitter } from "node:events";
import * as path from "node:path";
import type { Order, OrderId } from "./types";
import db, { transaction as tx } from "../db";
export { formatPrice } from "./money";
export * from "./constants";

let requestCount = 0;
const cache = new Map<OrderId, Order>();
const DEFAULT_LIMIT = 50;

/** Thrown when an order id is unknown. */
export class OrderNotFound extends Error {}

export interface OrderRepo extends Repo<Order> {
  find(id: OrderId): Promise<Order | null>;
}

export type OrderStatus = "open" | "paid" | "shipped";

export enum Priority {
  Low,
  High,
}

/**
 * Loads orders, caching them in memory.
 * @see OrderRepo
 */
@Injectable()
export class OrderService extends EventEmitter implements Disposable {
  private lastId: OrderId | null = null;
  static #instances = 0;

  constructor(private readonly repo: OrderRepo) {
    super();
    OrderService.#instances++;
  }

  get size(): number {
    return cache.size;
  }

  async get(id: OrderId): Promise<Order> {
    requestCount++;
    const hit = cache.get(id);
    if (hit) return hit;
    const order = await this.repo.find(id);
    if (!order) {
      console.error(`order ${id} missing`);
      throw new OrderNotFound(`no order ${id}`);
    }
    this.lastId = id;
    cache.set(id, order);
    return order;
  }

  // Arrow field keeps `this` bound when passed as a callback.
  private handle = async (id: OrderId): Promise<void> => {
    this.emit("order", await this.get(id));
  };

  #reset(): void {
    const cache = new Map();
    cache.clear();
    this.lastId = null;
  }

  [Symbol.dispose](): void {
    this.removeAllListeners();
  }
}

export const formatOrder = (order: Order, currency = "EUR"): string =>
  `${order.id}: ${path.basename(currency)}`;

export async function loadOrders(ids: OrderId[], limit: number = DEFAULT_LIMIT): Promise<Order[]> {
  const service = new OrderService(db.orders);
  const helper = function (id: OrderId) {
    return service.get(id);
  };
  if (ids.length > limit) throw new RangeError("too many ids: " + ids.length);
  return Promise.all(ids.map(helper));
}

function resetCounters() {
  requestCount = 0;
  cache.clear();
}

export { resetCounters };
export default OrderService;
