import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { asRequester } from '../../federation/fair-queue';
import type { Context } from '../../schema/index';
import { OperationBudget } from '../../schema/operation-budget';
import type { QueryLimits } from './limits';

// Bounds on the work queries and mutations do, on HTTP and WebSocket alike (both run through
// yoga's envelop): at most `operations` at once in the kernel (one socket may hold only a few of
// them: server/websocket.ts), each with a budget of values and transcript bytes counted as it
// runs (schema/operation-budget.ts). A bound reached is an answer with an error and a code, never
// a process out of memory.

const HUB_ITSELF = {};

export function operationBoundsPlugin(limits: QueryLimits): Plugin<Context> {
  let running = 0;
  return {
    onExecute({ executeFn, setExecuteFn, extendContext, context }) {
      extendContext({ budget: new OperationBudget({ values: limits.values, bytes: limits.bytes }, context.signal ?? null) });
      setExecuteFn(async (args) => {
        if (running >= limits.operations) {
          const message = `this kernel is answering ${limits.operations} operations, the most it runs at once: ask again in a moment`;
          return { errors: [new GraphQLError(message, { extensions: { code: 'UNAVAILABLE' } })] };
        }
        running++;
        try {
          // what this operation asks of linked hosts waits its turn as its caller's (federation/fair-queue.ts)
          return await asRequester(context.requester ?? HUB_ITSELF, () => executeFn(args));
        } finally {
          running--;
        }
      });
    },
  };
}
