import { errorResponseSchema } from '@pim/contract';

/** The error answers every API route may give, for the OpenAPI document. */
export const errorResponses = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
} as const;
