import { type APIPromise, type RequestOptions, ValidationError, type ValidationIssue } from '@x/core';
import { channelKind, channelNameProblem } from '../../shared/names.js';
import type { RealtimeContext } from '../context.js';
import { infoParam } from '../internal/event-input.js';
import {
  type ChannelInfo,
  type ChannelList,
  type ChannelUsers,
  channelInfo,
  channelList,
  channelUsers,
} from '../schemas/channels.js';

export type ChannelAttribute = 'user_count' | 'subscription_count' | 'cache' | (string & {});

export interface ListChannelsParams {
  /** Only channels whose name starts with this, e.g. `presence-`. */
  prefix?: string | undefined;
  /** `user_count` needs a `presence-` prefix; `subscription_count` needs subscription counting enabled. */
  info?: ChannelAttribute | readonly ChannelAttribute[] | undefined;
}

export interface GetChannelParams {
  /** `user_count` (presence only), `subscription_count`, `cache` (cache channels). */
  info?: ChannelAttribute | readonly ChannelAttribute[] | undefined;
}

/** `GET /channels...`: the app's occupied channels and their members. */
export class Channels {
  readonly #context: RealtimeContext;

  constructor(context: RealtimeContext) {
    this.#context = context;
  }

  /** The occupied channels, optionally filtered by prefix, with the attributes asked for. */
  list(params: ListChannelsParams = {}, options?: RequestOptions): APIPromise<ChannelList> {
    return this.#context.client.request(() => {
      const info = infoParam(params.info);
      const issues: ValidationIssue[] = [];
      if (info?.split(',').includes('user_count') && !params.prefix?.startsWith('presence-')) {
        issues.push({
          path: 'info',
          message: 'user_count is only available with a presence- prefix (the service refuses it otherwise)',
        });
      }
      if (issues.length > 0) throw new ValidationError('channels.list input', issues);
      return {
        method: 'GET',
        path: `${this.#context.appPath}/channels`,
        query: { filter_by_prefix: params.prefix, info },
        schema: channelList,
        what: 'channels.list',
        options,
      };
    });
  }

  /** One channel's state: `occupied`, and the attributes asked for. */
  get(name: string, params: GetChannelParams = {}, options?: RequestOptions): APIPromise<ChannelInfo> {
    return this.#context.client.request(() => {
      const info = infoParam(params.info);
      const issues = nameIssues(name);
      if (
        info?.split(',').includes('user_count') &&
        issues.length === 0 &&
        channelKind(name) !== 'presence'
      ) {
        issues.push({
          path: 'info',
          message: `user_count is only available for presence- channels, not ${name}`,
        });
      }
      if (issues.length > 0) throw new ValidationError('channels.get input', issues);
      return {
        method: 'GET',
        path: `${this.#context.appPath}/channels/${name}`,
        query: { info },
        schema: channelInfo,
        what: 'channels.get',
        options,
      };
    });
  }

  /** The ids of the users subscribed to a presence channel. */
  users(name: string, options?: RequestOptions): APIPromise<ChannelUsers> {
    return this.#context.client.request(() => {
      const issues = nameIssues(name);
      if (issues.length === 0 && channelKind(name) !== 'presence') {
        issues.push({
          path: 'name',
          message: `must be a presence- channel: only those have users (got ${name})`,
        });
      }
      if (issues.length > 0) throw new ValidationError('channels.users input', issues);
      return {
        method: 'GET',
        path: `${this.#context.appPath}/channels/${name}/users`,
        schema: channelUsers,
        what: 'channels.users',
        options,
      };
    });
  }
}

/**
 * Names are checked first and hold only characters a URL path keeps as they are, so they go into the path
 * unencoded, as pusher-http-node sends them: the signature covers the path, and an encoded `@` or `=` would
 * sign a different string than the official SDK does for the same channel.
 */
function nameIssues(name: string): ValidationIssue[] {
  const problem = channelNameProblem(name);
  return problem ? [{ path: 'name', message: problem }] : [];
}
