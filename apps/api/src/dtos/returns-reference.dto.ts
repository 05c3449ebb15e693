import { INTERNAL_RETURN_PORTAL_TYPE, RETURN_PORTAL_TYPE_PATTERN } from '@brand/core';
import { IsBoolean, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { MayBeOmitted } from './decorators';

@JSONSchema({ title: 'CreateClaimCauseRequest' })
export class CreateClaimCauseDto {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @JSONSchema({
    description:
      'What return lines name it by (claim_cause_code), ignoring case. Not unique: a code two causes share is refused on return lines as ambiguous.',
  })
  code!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name!: string;
}

@JSONSchema({ title: 'CreateReturnPortalRequest' })
export class CreateReturnPortalDto {
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name!: string;

  @IsString()
  @Matches(RETURN_PORTAL_TYPE_PATTERN, {
    message:
      '$property must be service, custom or a partner portal type (lower-case letters, digits, _ and -; at most 64)',
  })
  @JSONSchema({
    examples: [INTERNAL_RETURN_PORTAL_TYPE, 'custom'],
    description:
      `\`${INTERNAL_RETURN_PORTAL_TYPE}\`: the platform's own portal (refused by the external portal routes); \`custom\`: any app may use it; ` +
      'any other value is a partner portal type, usable only by an app whose internal_code is that type.',
  })
  type!: string;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'Lines announced through the portal must name a claim cause; default false.' })
  requires_claim_causes?: boolean;
}
