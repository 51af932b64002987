/**
 * The `node` side of the `#transcriber` import map: the transcriber for `client.streaming.transcriber()`.
 * Through the map, an edge function or browser bundle of the REST client resolves the other side and so
 * carries none of the transcriber (it could not use the API key there anyway).
 */
export { StreamingTranscriber } from '../transcriber.js';
