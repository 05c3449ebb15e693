import { OrderChannel, ORDER_TYPES } from '@brand/core';
import {
  Static,
  Type,
  boolean,
  component,
  dateTime,
  integer,
  nullable,
  oneOfValues,
  string,
} from '../http/wire-schema';

export const OrderChannelSchema = component(
  'OrderChannel',
  Type.Object({
    id: integer(),
    public_id: string('Goes into POST /v10/order-channels/{public_id}/orders'),
    name: string(),
    order_type: oneOfValues(ORDER_TYPES),
    auto_approve: boolean('Orders are approved (and get their shipment) as soon as they are created'),
    drop_id: nullable(integer(), { description: 'Every order of the channel belongs to this drop' }),
    created_at: dateTime(),
    updated_at: dateTime(),
  }),
);
export type OrderChannelWire = Static<typeof OrderChannelSchema>;

export function presentOrderChannel(channel: OrderChannel): OrderChannelWire {
  return {
    id: channel.id,
    public_id: channel.publicId,
    name: channel.name,
    order_type: channel.orderType,
    auto_approve: channel.autoApprove,
    drop_id: channel.dropId,
    created_at: channel.createdAt,
    updated_at: channel.updatedAt,
  };
}
