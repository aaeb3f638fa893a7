import { Cart as ShoppingCart, formatPrice } from '@/lib';
import { Button, Dialog } from '@shop/ui';

export function checkout(cart: ShoppingCart): string {
  const confirm = new Dialog();
  confirm.open();
  return new Button(formatPrice(cart.total())).render();
}
