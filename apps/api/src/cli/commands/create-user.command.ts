import { createUser } from '@brand/core';
import { CliCommand } from '../cli-command';
import { parseId } from '../cli-arguments';

interface CreateUserOptions {
  brand: number;
  email: string;
  name: string;
}

/** `brand create-user --brand <id> --email <email> --name <name>` */
export const createUserCommand: CliCommand<CreateUserOptions> = {
  name: 'create-user',
  summary: 'Add a user to a brand (tokens are issued to users)',
  configure(command) {
    command
      .requiredOption('--brand <id>', 'id of the brand', parseId)
      .requiredOption('--email <email>', "the user's e-mail address")
      .requiredOption('--name <name>', "the user's name");
  },
  async run({ storage, clock }, options) {
    const user = await createUser(
      { uow: storage.uow, clock },
      { brandId: options.brand, email: options.email, name: options.name },
    );
    return {
      json: {
        user_id: user.id,
        brand_id: user.brandId,
        email: user.email,
        name: user.name,
        created_at: user.createdAt,
      },
      text: `Created user ${user.id} ${user.name} <${user.email}> in brand ${user.brandId}.`,
    };
  },
};
