import { parseInput } from '@x/core';
import {
  type StreamingParams,
  type StreamingUpdateConfiguration,
  streamingParams,
  streamingUpdateConfiguration,
} from '../schemas/streaming.js';

const UNKNOWN_FIELD_ADVICE =
  'the service ignores a connection parameter it does not know, so it would have no effect. For a parameter newer than this SDK, pass allowUnknownFields: true';

/**
 * The connection parameters, checked before any socket opens: every bad field named, a misspelt one with
 * the closest known name. With `allowUnknownFields`, unknown names are sent as given.
 */
export function checkStreamingParams(params: unknown, allowUnknownFields: boolean): StreamingParams {
  return parseInput(streamingParams, params, 'streaming params', {
    allowUnknownFields,
    unknownFieldAdvice: UNKNOWN_FIELD_ADVICE,
  });
}

/** An `UpdateConfiguration`'s fields, checked the same way. */
export function checkUpdateConfiguration(
  config: unknown,
  allowUnknownFields: boolean,
): StreamingUpdateConfiguration {
  return parseInput(streamingUpdateConfiguration, config, 'updateConfiguration', {
    allowUnknownFields,
    unknownFieldAdvice: UNKNOWN_FIELD_ADVICE,
  });
}
