import { createUser } from '@brand/core';
import { CliCommand } from '../cli-command';
import { parseId } from '../cli-arguments';

interface CreateUserOptions {
  brand: number;
  email: string;
  name: string;
  password?: string;
}

/** `brand create-user --brand <id> --email <email> --name <name> [--password <password>]` */
export const createUserCommand: CliCommand<CreateUserOptions> = {
  name: 'create-user',
  summary: 'Add a user to a brand (tokens are issued to users; with a password the user can log in)',
  configure(command) {
    command
      .requiredOption('--brand <id>', 'id of the brand', parseId)
      .requiredOption('--email <email>', "the user's e-mail address")
      .requiredOption('--name <name>', "the user's name")
      .option('--password <password>', 'lets the user log in with the e-mail address (12 to 256 characters)');
  },
  async run({ storage, clock, passwordHasher }, options) {
    const user = await createUser(
      { uow: storage.uow, clock, passwordHasher },
      { brandId: options.brand, email: options.email, name: options.name, password: options.password },
    );
    const canLogIn = options.password !== undefined;
    return {
      json: {
        user_id: user.id,
        brand_id: user.brandId,
        email: user.email,
        name: user.name,
        can_log_in: canLogIn,
        created_at: user.createdAt,
      },
      text: `Created user ${user.id} ${user.name} <${user.email}> in brand ${user.brandId}${canLogIn ? ', who can log in with the password given' : ''}.`,
    };
  },
};
