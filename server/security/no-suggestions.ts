import type { ExecutionResult } from 'graphql';
import { handleStreamOrSingleExecutionResult, type Plugin } from 'graphql-yoga';

// graphql-js ends many messages with "Did you mean …?" (fields, arguments, types, enum values in
// a literal or a variable): a way to map the schema one typo at a time. graphql-armor's blocker
// sees only validation errors and only the field form; this strips every form from every error,
// validation and execution alike, on HTTP and graphql-ws (both run through yoga's envelop).

const SUGGESTION = / Did you mean [\s\S]*\?$/;

/** The message without graphql-js's suggestion, which it always puts last. */
export const withoutSuggestion = (message: string): string => message.replace(SUGGESTION, '');

function strip(errors: readonly Error[] | undefined): void {
  for (const error of errors ?? []) error.message = withoutSuggestion(error.message);
}

export function noSuggestionsPlugin(): Plugin {
  const onResult = ({ result }: { result: ExecutionResult }) => strip(result.errors);
  return {
    onValidate:
      () =>
      ({ result }) =>
        strip(result),
    onExecute: () => ({ onExecuteDone: (payload) => handleStreamOrSingleExecutionResult(payload, onResult) }),
    onSubscribe: () => ({ onSubscribeResult: (payload) => handleStreamOrSingleExecutionResult(payload, onResult) }),
  };
}
