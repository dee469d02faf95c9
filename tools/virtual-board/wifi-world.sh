#!/bin/sh
# Runs on the x86 virtual board (VirtualBoardDeployTests, issue 60): the Wi-Fi a box meets,
# on mac80211_hwsim's three simulated radios — the box's own (wlan0, NetworkManager's), a
# club's router (hostapd and dnsmasq's DHCP, in network namespace `router`) and a phone
# (wpa_supplicant, in namespace `phone`). A browser on the host reaches the page as the
# phone does: the board's port 8081 is relayed into the phone's namespace (socat).
#
#   wifi-world.sh router SSID PASSPHRASE       the radios, and the router serving SSID
#   wifi-world.sh phone SSID PASSPHRASE BOX     the phone joins SSID (the box's hotspot) and
#                                               port 8081 leads to BOX's port 80 through it
set -eu
case "$1" in
router)
  modprobe mac80211_hwsim radios=3
  for _ in $(seq 50); do [ -e /sys/class/net/wlan2 ] && break; sleep 0.2; done
  ip netns add router
  ip netns add phone
  iw phy "$(cat /sys/class/net/wlan1/phy80211/name)" set netns name phone
  iw phy "$(cat /sys/class/net/wlan2/phy80211/name)" set netns name router
  printf '%s\n' interface=wlan2 driver=nl80211 "ssid=$2" hw_mode=g channel=6 wpa=2 "wpa_passphrase=$3" \
    wpa_key_mgmt=WPA-PSK rsn_pairwise=CCMP > /run/router-hostapd.conf
  ip netns exec router ip link set lo up
  ip netns exec router ip addr add 192.168.50.1/24 dev wlan2
  ip netns exec router hostapd -B -P /run/router-hostapd.pid /run/router-hostapd.conf > /run/router-hostapd.log
  ip netns exec router dnsmasq --conf-file=/dev/null --interface=wlan2 --bind-interfaces --port=0 \
    --dhcp-range=192.168.50.10,192.168.50.99,1h --pid-file=/run/router-dnsmasq.pid
  ;;
phone)
  printf 'network={\n  ssid="%s"\n  psk="%s"\n}\n' "$2" "$3" > /run/phone.conf
  ip netns exec phone ip link set lo up
  ip netns exec phone wpa_supplicant -B -i wlan1 -c /run/phone.conf -P /run/phone-wpa.pid > /run/phone-wpa.log
  for _ in $(seq 100); do ip netns exec phone iw dev wlan1 link | grep -q Connected && break; sleep 0.3; done
  ip netns exec phone iw dev wlan1 link | grep -q Connected || { echo "the phone did not join $2"; exit 1; }
  ip netns exec phone ip addr add "${4%.*}.50/24" dev wlan1
  printf '#!/bin/sh\nexec ip netns exec phone socat STDIO TCP:%s:80\n' "$4" > /run/phone-relay
  chmod +x /run/phone-relay
  setsid socat TCP-LISTEN:8081,fork,reuseaddr EXEC:/run/phone-relay < /dev/null > /dev/null 2>&1 &
  ;;
*) echo "usage: wifi-world.sh router|phone …" >&2; exit 2 ;;
esac
