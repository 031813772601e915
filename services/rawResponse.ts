/** What a transport hands back: the status, the headers and the raw body text. */
export interface RawResponse {
  status: number;
  headers: Headers;
  body: string;
}
