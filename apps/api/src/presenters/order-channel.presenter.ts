import { OrderChannel, OrderType } from '@brand/core';

export interface OrderChannelWire {
  id: number;
  /** Goes into `POST /v10/order-channels/{public_id}/orders`. */
  public_id: string;
  name: string;
  order_type: OrderType;
  auto_approve: boolean;
  drop_id: number | null;
  created_at: string;
  updated_at: string;
}

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
