import { ALL_EVENTS, EVENT_TYPES, MAX_WEBHOOK_DESCRIPTION_LENGTH, MAX_WEBHOOK_URL_LENGTH } from '@brand/core';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { MayBeOmitted } from './decorators';

const URL_DESCRIPTION =
  'Absolute http or https URL the events are POSTed to, without user name or password. Its host must pass the ' +
  'address policy when a delivery resolves it (private and loopback addresses only when WEBHOOK_ALLOWED_HOSTS allows them).';
const EVENTS_DESCRIPTION = `Event types to receive, or ["${ALL_EVENTS}"] for every type.`;
const EVENTS_SCHEMA = {
  type: 'array' as const,
  items: { type: 'string' as const, enum: [ALL_EVENTS, ...EVENT_TYPES] },
  description: EVENTS_DESCRIPTION,
};

/** `POST /v10/webhook-endpoints`. */
@JSONSchema({ title: 'CreateWebhookEndpointRequest' })
export class CreateWebhookEndpointDto {
  @IsString()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  @JSONSchema({ description: URL_DESCRIPTION, examples: ['https://erp.example.com/hooks/brand'] })
  url!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(EVENT_TYPES.length + 1)
  @IsString({ each: true })
  @JSONSchema(EVENTS_SCHEMA)
  events!: string[];

  @IsOptional()
  @IsString()
  @MaxLength(MAX_WEBHOOK_DESCRIPTION_LENGTH)
  description?: string | null;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'Default true; a disabled endpoint keeps its settings and receives nothing.' })
  enabled?: boolean;
}

/** `PATCH /v10/webhook-endpoints/{id}`: fields not sent keep their value. */
@JSONSchema({ title: 'UpdateWebhookEndpointRequest' })
export class UpdateWebhookEndpointDto {
  @MayBeOmitted()
  @IsString()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  @JSONSchema({ description: URL_DESCRIPTION })
  url?: string;

  @MayBeOmitted()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(EVENT_TYPES.length + 1)
  @IsString({ each: true })
  @JSONSchema(EVENTS_SCHEMA)
  events?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(MAX_WEBHOOK_DESCRIPTION_LENGTH)
  @JSONSchema({ description: 'null clears it.' })
  description?: string | null;

  @MayBeOmitted()
  @IsBoolean()
  enabled?: boolean;
}
