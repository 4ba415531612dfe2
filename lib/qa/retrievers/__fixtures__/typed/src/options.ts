/** The options a request is made with. */
export interface Options {
  retries: number;
  timeout: number;
}
